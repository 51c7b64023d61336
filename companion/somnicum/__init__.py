"""Somnicum's pure rules: dreams, scoring, and (later) the field and flywheels."""
