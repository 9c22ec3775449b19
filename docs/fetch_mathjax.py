"""Fetch MathJax into the site, so its mathematics renders without a network.

The site's equations are LaTeX, typeset in the reader's browser by MathJax.
Sphinx's default loads MathJax from a CDN at every page view, which fails
offline and behind firewalls; this script fetches MathJax 3.2.2 (Apache-2.0)
once from the npm registry, checks the archive's SHA-256, and writes its
self-contained SVG build ``es5/tex-svg-full.js`` and its licence into
``docs/_static/mathjax/`` (not versioned), where ``docs/conf.py`` finds it.
``make docs`` runs it; a file already in place is kept.
"""

import hashlib
import io
from pathlib import Path
import sys
import tarfile
import urllib.request

VERSION = "3.2.2"
URL = f"https://registry.npmjs.org/mathjax/-/mathjax-{VERSION}.tgz"
SHA256 = "1b9c0a1c44df864e915690558e72adb9cc5203360daefd385084ced3b6c64c09"
TARGET = Path(__file__).resolve().parent / "_static" / "mathjax"
MEMBERS = {"package/es5/tex-svg-full.js": "tex-svg-full.js", "package/LICENSE": "LICENSE"}


def fetch(target=TARGET):
    """Write MathJax's SVG build and licence into `target`, unless present."""
    if all((target / name).is_file() for name in MEMBERS.values()):
        return
    try:
        with urllib.request.urlopen(URL, timeout=60) as response:
            archive = response.read()
    except OSError as error:  # URLError, timeouts, refused connections
        sys.exit(
            f"fetch_mathjax: could not download {URL} ({error}); the site serves MathJax "
            f"itself so its equations render offline: retry with access to the npm "
            f"registry, or put MathJax {VERSION}'s es5/tex-svg-full.js into {target}"
        )
    digest = hashlib.sha256(archive).hexdigest()
    if digest != SHA256:
        sys.exit(f"fetch_mathjax: {URL} has SHA-256 {digest}, expected {SHA256}; nothing written")
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        for member, name in MEMBERS.items():
            data = tar.extractfile(member).read()
            partial = target / f".{name}.part"
            partial.write_bytes(data)
            partial.replace(target / name)
    print(f"fetch_mathjax: MathJax {VERSION} written to {target}")


if __name__ == "__main__":
    fetch()
