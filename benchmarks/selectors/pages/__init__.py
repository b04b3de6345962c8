"""The pages that show the answers: the comparison page and its menus, the five families, the
finder, instance types, benchmarks, runs and the catalogue."""
