"""GDL: parse, check, prove, ground, and play General Game Playing games."""
