package engine

// A RouteBinder is a [Dialect] whose stored turns depend on the route that
// answered them: the Responses dialect records that route as the issuer of
// its encrypted reasoning items, which only their issuer may see again
// (SPEC §9.5). [Engine.Turn] shapes, captures and learns through the
// dialect ForRoute returns.
type RouteBinder interface {
	ForRoute(r Route) Dialect
}
