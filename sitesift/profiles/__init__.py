"""A site's learned models kept between runs: bytes (``serialize``) in an SQLite store (``store``).

``SiteProfile`` itself, the object they save, is the template method's site model with the forum
method's rules beside it (``sitesift.methods.template.profile``)."""
