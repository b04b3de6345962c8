"""The API's answers beyond price-performance, one module per subject (views, and their serializers
and filters where a subject has its own)."""
