"""The five built-in physics tests, one module each; each registers itself with @register_test."""
