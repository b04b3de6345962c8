"""Your fleet, re-bought: a bill or a fleet list read into lines, each line's cheaper equal."""
