"""Writes: every change to the domain's data goes through a function here.

One module per area (runs, prices); each public function is keyword-only and atomic.
"""
