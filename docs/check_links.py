"""Check the built site's internal links: every relative ``href`` and ``src``
of every page names a file of the site, and its ``#fragment`` an ``id`` of
that page.

Sphinx's own ``linkcheck`` builder is for links to other sites; within the
site, a cross-reference that does not resolve is already a warning (the
build is nitpicky, with warnings as errors), but a Markdown link to a file,
a heading anchor or an image path is not. This reads the HTML the build
wrote and needs no network::

    python docs/check_links.py docs/_build/html

It prints each broken link with the page that holds it and exits 1 if there
is any.
"""

from html.parser import HTMLParser
from pathlib import Path
import sys
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    """The ids a page defines and the links it holds."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if attrs.get(key):
                self.ids.add(attrs[key])
        for key in ("href", "src"):
            if attrs.get(key):
                self.links.append(attrs[key])


def _parse(path):
    page = _Page()
    page.feed(path.read_text(encoding="utf-8", errors="replace"))
    return page


def _pages(root):
    """The site's pages: its HTML files but the theme's templates in _static."""
    return sorted(p for p in root.rglob("*.html") if "_static" not in p.relative_to(root).parts)


def broken_links(root):
    """``(page, link, reason)`` of every internal link of the site at `root`
    that does not resolve."""
    root = Path(root).resolve()
    pages = {path: _parse(path) for path in _pages(root)}
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:")):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            where = path.relative_to(root)
            if root not in target.parents and target != root:
                broken.append((where, link, "leaves the site"))
            elif not target.exists():
                broken.append((where, link, "no such file"))
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append((where, link, "no such anchor"))
    return broken


def main(argv=None):
    """Print the broken internal links of the site; return 1 if there is any."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0] if args else "docs/_build/html")
    if not (root / "index.html").is_file():
        print(f"check_links: {root} holds no built site (run make docs)", file=sys.stderr)
        return 2
    broken = broken_links(root)
    for where, link, reason in broken:
        print(f"{where}: {link} ({reason})")
    pages = len(_pages(root.resolve()))
    print(f"check_links: {pages} pages, {len(broken)} broken internal links")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
