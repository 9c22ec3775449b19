r"""
A faster digit classifier: reduced-set SVMs
===========================================

Your support vector machine recognises digits well, but it keeps hundreds of
support vectors, and every prediction evaluates the kernel against each of
them. A reduced set (Burges 1996; Schölkopf et al. 1999, Sec. V) replaces
each machine's expansion :math:`\sum_i \alpha_i \varphi(x_i)` by :math:`\sum_j \beta_j \varphi(z_j)` over a few
vectors z_j, built as pre-images, and recomputes the thresholds on the
training data. :func:`preimage.reduce_svm` does it for a fitted
scikit-learn SVM; how many vectors do you need?
"""

# %%
# The original SVM
# ----------------
# A one-vs-rest SVM with a Gaussian kernel on 1,000 of scikit-learn's 8 × 8
# digits (:func:`preimage.datasets.load_digits`, pixels in [0, 1]), tested on
# the 797 others.
import timeit
import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import SVC

from preimage import ReducedSVC, reduce_svm
from preimage.datasets import load_digits
from preimage.exceptions import ConvergenceWarning
from preimage.plot import plot_reduced_set, plot_reduced_set_error

X, y = load_digits()
X_train, X_test, y_train, y_test = train_test_split(
    X, y, train_size=1000, test_size=797, random_state=0
)
svm = OneVsRestClassifier(SVC(C=10)).fit(X_train, y_train)
svm_accuracy = svm.score(X_test, y_test)
print(f"SVM test accuracy {svm_accuracy:.3f}")

# %%
# Reduced sets of growing size
# ----------------------------
# By default (``shared=True``) one set of vectors serves all ten machines,
# as the support vectors do; the threshold of each machine is recomputed on
# the training digits. The time is that of ``decision_function`` on the
# test digits repeated 20 times, the best of three runs.


X_many = np.tile(X_test, (20, 1))  # 15,940 digits, for timings long enough to trust


def decision_seconds(model):
    """Best of three timings of ``decision_function`` on 15,940 digits."""
    return min(timeit.repeat(lambda: model.decision_function(X_many), number=1, repeat=3))


svm_seconds = decision_seconds(svm)

sizes = [5, 10, 20, 40, 80]
accuracy, seconds, reduced = [], [], {}
for n in sizes:
    with warnings.catch_warnings():
        # a few pre-image runs stop at their iteration limit; the best
        # candidate found is kept, and the accuracy below says what it costs
        warnings.simplefilter("ignore", ConvergenceWarning)
        small = reduce_svm(svm, n, X=X_train, y=y_train, random_state=0)
    reduced[n] = small
    seconds.append(decision_seconds(small))
    accuracy.append(small.score(X_test, y_test))
    print(f"{n:3d} vectors: accuracy {accuracy[-1]:.3f}, decision {seconds[-1]:.3f} s")
n_support = reduced[sizes[0]].original_n_support_
print(f"original: {n_support} support vectors, decision {svm_seconds:.3f} s")

fig, (ax, ax_time) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
ax.plot(sizes, accuracy, "o-", label="reduced set")
ax.axhline(svm_accuracy, color="k", ls="--", label=f"SVM, {n_support} support vectors")
ax.set_ylabel("test accuracy")
ax.set_title("Accuracy of the reduced SVM")
ax.legend(loc="lower right")
ax_time.plot(sizes, seconds, "o-", label="reduced set")
ax_time.axhline(svm_seconds, color="k", ls="--", label=f"SVM, {n_support} support vectors")
ax_time.set_yscale("log")
ax_time.set_ylabel("decision_function on 15,940 digits (s, log scale)")
ax_time.set_title("Prediction time")
ax_time.legend(loc="center right")
for a in (ax, ax_time):
    a.set_xscale("log")
    a.set_xticks(sizes, [str(n) for n in sizes])
    a.minorticks_off()
    a.set_xlabel("number of reduced-set vectors (shared by the 10 machines)")

# %%
# How well each machine is approximated
# -------------------------------------
# The relative feature-space error :math:`\|\Psi - \Psi'\|^2 / \|\Psi\|^2` of each of the ten
# machines as the vectors of the largest set are added one by one.
plot_reduced_set_error(
    reduced[sizes[-1]], max_legend=10, title="Feature-space error of each machine"
)

# %%
# The accuracy comes back long before the feature-space errors are small: a
# classifier needs the sign of each machine's output and their order, not the
# whole expansion.

# %%
# What the vectors look like
# --------------------------
# The constructed vectors are images themselves: pre-images of what remained
# of the machines' expansions, weighted by their total coefficient over the
# ten machines.
plot_reduced_set(reduced[20], image_shape=(8, 8), n_cols=10, title="The 20 shared vectors")

# %%
# In one step, for pipelines and grid searches
# --------------------------------------------
# :class:`preimage.ReducedSVC` fits the SVM, reduces it and recomputes the
# thresholds in one ``fit``, so the number of vectors can be tuned like any
# other parameter.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)
    model = ReducedSVC(OneVsRestClassifier(SVC(C=10)), 40, random_state=0)
    model.fit(X_train, y_train)
print(f"ReducedSVC with {model.n_vectors_} vectors: accuracy {model.score(X_test, y_test):.3f}")
plt.show()
