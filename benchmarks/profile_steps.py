"""Where applying saved profiles spends its CPU time, step by step, in one process.

    python benchmarks/profile_steps.py MANIFEST PROFILES.db [--code DIR]

Reads the manifest's pages (timed), extracts them with ``Options(method="template")`` and the
store's profiles, and writes the records to memory (timed): each timed step below is wrapped so
that it counts its own CPU time, the steps timed inside it taken out, so the rows add up to the
whole. ``--code`` runs another checkout's code (e.g. ``git archive COMMIT``); steps that
checkout lacks are left out. Process time, not a sampling profiler: on a shared box a sampler's
shares follow the wall clock and move with the load. Start-up is not in it (``end_to_end.py``'s
one-page run measures it).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import io
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: (row, module, class or None, function): the steps timed, outermost first.
STEPS = (
    ("parsing (parse_html)", "sitesift.parse.html", None, "parse_html"),
    ("field sources (FieldSources.read)", "sitesift.methods.template.fields", "FieldSources",
     "read"),
    ("template assignment (the rest of _assign)", "sitesift.pipeline.template", "TemplatePath",
     "_assign"),
    ("wrapped pages: metadata, Wrapper.apply, fits", "sitesift.pipeline.template",
     "TemplatePath", "_read_wrapped"),
    ("pages no wrapper reads: metadata and links (_read_all)", "sitesift.pipeline.base",
     "PipelineBase", "_read_all"),
    ("pages no wrapper reads: content signatures", "sitesift.methods.template.method",
     "TemplateMethod", "signatures_of"),
    # (the same row in checkouts before the template's read step)
    ("pages no wrapper reads: content signatures", "sitesift.pipeline.template", None,
     "_set_signatures"),
    ("pages no wrapper reads: page extractor", "sitesift.methods.page.content", None,
     "extract_content"),
    ("records: DeleteSame, fields placed, text (the rest of _clean_pages)",
     "sitesift.pipeline.template", "TemplatePath", "_clean_pages"),
    # (the same two rows in checkouts before the template's read step, b3524c9 and older)
    ("wrapped pages: metadata, Wrapper.apply, fits", "sitesift.pipeline.template",
     "TemplatePath", "_wrap"),
    ("records: DeleteSame, fields placed, text (the rest of _clean_pages)",
     "sitesift.pipeline.template", "TemplatePath", "_finish_wrapped"),
    ("site titles (_learn_titles)", "sitesift.pipeline.base", "PipelineBase", "_learn_titles"),
)


def _timed(row: str, func: Callable[..., Any], own: Counter[str],
           stack: list[float]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        stack.append(0.0)
        start = time.process_time()
        try:
            return func(*args, **kwargs)
        finally:
            spent = time.process_time() - start
            inner = stack.pop()
            own[row] += spent - inner
            if stack:
                stack[-1] += spent
    return run


def _wrap_steps(own: Counter[str], stack: list[float]) -> None:
    for row, module_name, class_name, name in STEPS:
        module = importlib.import_module(module_name)
        owner = getattr(module, class_name) if class_name else module
        if not hasattr(owner, name):
            continue  # (a checkout without this step)
        raw = inspect.getattr_static(owner, name)
        if isinstance(raw, staticmethod):
            setattr(owner, name, staticmethod(_timed(row, raw.__func__, own, stack)))
            continue
        wrapped = _timed(row, getattr(owner, name), own, stack)
        setattr(owner, name, wrapped)
        if class_name is None:  # modules that imported the function by name
            for other in list(sys.modules.values()):
                if (getattr(other, "__name__", "") or "").startswith("sitesift") \
                        and vars(other).get(name) is raw:
                    setattr(other, name, wrapped)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("manifest")
    parser.add_argument("profiles")
    parser.add_argument("--code", type=Path, help="a checkout whose code runs instead")
    args = parser.parse_args(argv)
    sys.path.insert(0, str((args.code or Path(__file__).resolve().parents[1]).resolve()))
    from sitesift.input import iter_pages
    from sitesift.options import Options
    from sitesift.output import open_writer
    from sitesift.pipeline import Extractor
    from sitesift.profiles.store import ProfileStore

    own: Counter[str] = Counter()
    _wrap_steps(own, [])
    start = time.process_time()
    pages = list(iter_pages([args.manifest]))
    reading = time.process_time() - start
    with ProfileStore(args.profiles) as store:
        extractor = Extractor(Options(method="template", page_timeout=None), profiles=store)
        start = time.process_time()
        records = list(extractor.extract_many(pages))
        run = time.process_time() - start
    start = time.process_time()
    writer = open_writer(io.StringIO(), "jsonl")
    for record in records:
        writer.write(record)
    writing = time.process_time() - start
    rows = {"reading and decoding the files": reading,
            **{row: own[row] for row in dict.fromkeys(step[0] for step in STEPS) if row in own},
            "writing JSONL": writing,
            "the rest (the site loop, the store, freeing trees)": run - sum(own.values())}
    total = reading + run + writing
    import sitesift

    print(f"{sitesift.__file__}: {len(records)} records, {total:.3f} s CPU")
    for row, seconds in rows.items():
        print(f"| {row} | {seconds:.3f} | {100 * seconds / total:.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
