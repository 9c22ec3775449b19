"""The library's shared toolkit: argument checks, row blocks, eigen-solvers,
settings, the memory budget, warnings and types. Private: any package may
import it, it imports none of them."""
