"""preferans-dd: exact double-dummy analysis for Preferans."""
