"""The price-performance answer's own machinery: the kept series it reads, the basis, baseline and
estimates, verified runs, the rows and their standing, the sentence that says the answer."""
