"""Reads, by subject, returning answers (not chart JSON): `answer` (the price-performance answer's
machinery), `costs` (prices and what things cost), `pages` (what the pages show),
`compare_types` (the compare page) and `subjects` (storage, network, databases, LLM serving and
the rest).

Import the module you need (`from benchmarks.selectors.costs import prices`): nothing is
re-exported from a package, so that each read has one obvious home.
"""
