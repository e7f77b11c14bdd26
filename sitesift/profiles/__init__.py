"""A site's learned models kept between runs: bytes (``serialize``) in an SQLite store (``store``).

``SiteProfile`` itself, the object they save, is the template method's site model with the forum
method's rules beside it (``sitesift.methods.template.profile``); its JSON-able form, the one
the site-level interface passes (``TemplateMethod.to_profile`` / ``from_profile``), is
``sitesift.methods.template.profile_data``."""
