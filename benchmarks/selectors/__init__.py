"""Reads, one module per subject: lookups by name, prices, price-performance, the comparison page.

Import the module you need (`from benchmarks.selectors import prices`): nothing is re-exported
here, so that each read has one obvious home.
"""
