package rules

import "github.com/volley-wargames/volley/scenario"

// Define adds each definition of list (a unit type, a weapon) to byName under the name
// name gives, checked by check, and refuses a name defined twice, in the words "<what>
// %q is defined twice". A definition without a name is passed over (Decode reports the
// missing name); Define reports whether there was one, so that what names it can be
// passed over too.
func Define[T any](doc *scenario.Doc, list []T, what string, name func(*T) *string, byName map[string]*T,
	check func(*scenario.Doc, *T, *scenario.ErrorList), errs *scenario.ErrorList,
) (nameless bool) {
	for i := range list {
		d := &list[i]
		n := name(d)
		if *n == "" {
			nameless = true
			continue
		}
		if _, dup := byName[*n]; dup {
			errs.Add(doc.At(n), "%s %q is defined twice", what, *n)
			continue
		}
		check(doc, d, errs)
		byName[*n] = d
	}
	return nameless
}
