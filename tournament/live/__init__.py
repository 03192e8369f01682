"""The live pages' machinery: the one polling mechanism and its early answer."""
