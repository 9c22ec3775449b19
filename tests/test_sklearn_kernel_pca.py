"""scikit-learn's own KernelPCA test suite, run against :class:`preimage.KernelPCA`.

The module shipped in the installed scikit-learn
(``sklearn/decomposition/tests/test_kernel_pca.py``) is read at collection
time, its one import of ``KernelPCA`` swapped for ours, and executed into this
module, so that pytest collects its tests here; nothing of it is copied into
the repository, and a new scikit-learn brings its new tests. The
``global_random_seed`` fixture of scikit-learn's conftest is given two seeds.
"""

from pathlib import Path

import pytest
import sklearn

SOURCE = Path(sklearn.__file__).parent / "decomposition" / "tests" / "test_kernel_pca.py"
IMPORT = "from sklearn.decomposition import PCA, KernelPCA\n"

if not SOURCE.is_file():
    raise RuntimeError(
        f"scikit-learn's KernelPCA tests are not installed at {SOURCE}; "
        "install scikit-learn from its wheel, which ships them"
    )
_text = SOURCE.read_text(encoding="utf-8")
if _text.count(IMPORT) != 1:
    raise RuntimeError(
        f"{SOURCE} no longer imports KernelPCA as {IMPORT.strip()!r}; "
        "update the swap in this module"
    )
# One line for one line: tracebacks keep scikit-learn's line numbers.
exec(
    compile(
        _text.replace(
            IMPORT, "from sklearn.decomposition import PCA; from preimage import KernelPCA\n"
        ),
        str(SOURCE),
        "exec",
    )
)


@pytest.fixture(params=[0, 42])
def global_random_seed(request):
    """The seeds of scikit-learn's seed-dependent tests (its default is 42)."""
    return request.param


def test_the_swap_took_place():
    import preimage

    assert KernelPCA is preimage.KernelPCA  # noqa: F821 (defined by the exec above)
