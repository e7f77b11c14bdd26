import pytest

from sitesift.record import Page
from sitesift.service.memory import MemorySettings, SiteHistory, SiteMemory


def _page(i: int) -> Page:
    return Page(id=f"p{i}", site="s", html="<p>x</p>")


def test_learning_is_due_at_min_pages_then_when_pages_double() -> None:
    settings = MemorySettings(min_learn_pages=3)
    hist = SiteHistory("s", limit=10)
    due = []
    for i in range(1, 13):
        hist.add(_page(i))
        if hist.due(settings):
            hist.start_learning()
            due.append(i)
    assert due == [3, 6, 12]


def test_pages_fitting_no_template_bring_learning_forward() -> None:
    settings = MemorySettings(min_learn_pages=2, relearn_unassigned=2)
    hist = SiteHistory("s", limit=10)
    for i in range(2):
        hist.add(_page(i))
    assert hist.start_learning() and not hist.due(settings)
    for i in (2, 3):
        hist.add(_page(i))
        hist.note({"id": f"p{i}", "cluster": "s#new-0"})
    assert hist.due(settings)


def test_history_is_bounded_and_a_page_sent_again_replaces_its_copy() -> None:
    hist = SiteHistory("s", limit=3)
    for i in [1, 2, 3, 2, 4]:
        hist.add(_page(i))
        hist.note({"id": f"p{i}"})
    assert [p.id for p in hist.pages] == ["p3", "p2", "p4"]
    assert set(hist.records) == {"p3", "p2", "p4"} and hist.seen == 4


def test_least_recently_used_site_is_forgotten() -> None:
    memory = SiteMemory(MemorySettings(max_sites=2))
    memory.history("a"), memory.history("b"), memory.history("a"), memory.history("c")
    assert memory.sites() == ["a", "c"]


def test_incoherent_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="recent_pages"):
        MemorySettings(min_learn_pages=5, recent_pages=3)
    with pytest.raises(ValueError, match="positive"):
        MemorySettings(max_sites=0)
