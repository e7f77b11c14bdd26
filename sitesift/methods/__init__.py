"""The methods, one subpackage each: ``page`` (one page alone, the base of every other),
``template`` (paper 000), ``forum`` (001), ``visual`` (002), ``siblings`` (004), and ``auto``,
the policy over them. ``interface`` is the shape a site-level method takes
(docs/design/architecture.md, "Adding a method"); a method imports another only through it."""
