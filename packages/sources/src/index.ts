// The built-in inbound sources (decision 1601): one file per provider, each a
// defineSource definition coded against the provider's published documentation.
