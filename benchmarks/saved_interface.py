"""A saved template profile through the site-level interface against the store's path.

    python benchmarks/saved_interface.py SET --profiles DB [--no-wrappers]

Every site's profile in DB (``sitesift learn``) is turned into JSON text and read back
(``TemplateMethod.to_profile`` -> ``json.dumps`` -> ``json.loads`` -> ``from_profile``), then
``Extractor(Options(method="template")).extract_with(TemplateMethod(...), pages, models=...)``
runs over the set's pages and its records are compared field by field with those of
``extract_many`` with the store (``extract --profiles DB``; a copy of DB, which that run may
write). Prints how many records differ and in which fields, and how many pages each side's
wrappers read. docs/architecture.md ("The template's model saved and read back") says why
some fields differ.
"""

from __future__ import annotations

import argparse
import collections
import json
import shutil
import tempfile
from pathlib import Path

from sitesift import Extractor, Options
from sitesift.input import iter_pages
from sitesift.methods.template.method import TemplateMethod
from sitesift.profiles.store import ProfileStore

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("set", help="a dev set under ../shared/data")
    parser.add_argument("--profiles", required=True, help="a store `sitesift learn` wrote")
    parser.add_argument("--no-wrappers", action="store_true",
                        help="both sides without wrappers and field sources")
    args = parser.parse_args()
    wrappers = not args.no_wrappers
    pages = list(iter_pages([str(DATA / args.set / "pages.jsonl")]))
    options = Options(method="template", wrappers=wrappers, page_timeout=None)
    method = TemplateMethod(wrappers=wrappers)
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(args.profiles, Path(folder) / "p.db")
        with ProfileStore(Path(folder) / "p.db") as store:
            by_store = list(Extractor(options, profiles=store).extract_many(pages))
            models = {}
            for site in {page.site for page in pages if page.site is not None}:
                profile = store.get(site)
                if profile is not None:
                    text = json.dumps(method.to_profile(TemplateMethod.saved(profile)))
                    models[site] = method.from_profile(json.loads(text))
    records, _ = Extractor(options).extract_with(method, pages, models=models)
    fields: collections.Counter[str] = collections.Counter()
    differ = 0
    for a, b in zip(by_store, records, strict=True):
        one, other = a.to_dict(), b.to_dict()
        names = [k for k in sorted(set(one) | set(other)) if one.get(k) != other.get(k)]
        differ += bool(names)
        fields.update(names)
    print(f"{args.set}: {len(pages)} pages, {differ} records differ, by field "
          f"{dict(sorted(fields.items()))}; wrappers read "
          f"{sum(bool(r.extra.get('wrapper')) for r in by_store)} (store's path) and "
          f"{sum(bool(r.extra.get('wrapper')) for r in records)} (interface) pages")


if __name__ == "__main__":
    main()
