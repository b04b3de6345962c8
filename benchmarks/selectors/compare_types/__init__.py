"""Compare (`/compare/`): chosen types side by side on every benchmark they share, its lines,
regions, estimates and sentence."""
