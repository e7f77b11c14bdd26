import pytest

from sitesift.cli import main, parse_args


def test_serve_arguments_are_parsed() -> None:
    args = parse_args(["serve", "--port", "9001", "--profiles", "p.db", "--workers", "0"])
    assert (args.command, args.host, args.port, args.profiles, args.workers) == (
        "serve", "127.0.0.1", 9001, "p.db", 0)


def test_bad_serve_settings_exit_2_before_serving(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("fastapi", reason="the service extra (fastapi) is not installed")
    assert main(["serve", "--workers", "-1"]) == 2
    assert "workers" in capsys.readouterr().err
