"""The questions pricebench answers: one object per kind of answer, declared once.

Each question is a frozen query object (what a selector answers) and the form that
validates it, with its defaults and the notes of what it dropped. The page, the API (its
OpenAPI parameters come from the same form, `api/schema.py`) and the CSV export all go
through it. Questions read no data: what depends on the data (a benchmark's own parameters,
the regions with prices) is handed to them.

Import a question from the module that declares it (`benchmarks.questions.price_performance`):
nothing is re-exported here, so that each has one obvious home.
"""
