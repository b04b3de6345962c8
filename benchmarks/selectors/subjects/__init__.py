"""The other subjects, one module each: storage, network, databases, LLM serving, volumes, CPU
scaling, memory curves, long runs, profiles and workloads."""
