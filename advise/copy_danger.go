package advise

import (
	"context"
	"fmt"
)

// CopyDanger is the danger map of a system that places a copy of a unit of its battle
// (DangerQuery.As) on every point and has each enemy that may fire do so at it, each on
// its own dice, as Warfare's and the test-only toy's maps do: the copy's losses are the
// convolution of each firer's. The system says who fires and what one firer does at one
// point; the map's frame, its price and its cores are here.
type CopyDanger struct {
	Lattice
	// Copy is the unit copied, Left its measure left (what destroys it), Expected what an
	// Expected map counts ("expected wounds").
	Copy     string
	Left     int
	Expected string
	// Firers are the units that may fire at the copy; Effect(i, x, y) is what firer i does
	// to the copy standing at (x, y) in the system's own length: Dist[n] the chance it
	// loses n, capped at Left (Capped), or nil beyond the firer's reach.
	Firers []string
	Effect func(i int, x, y float64) []float64
	// PerInch is the table's unit per one of the system's lengths (1 in inches), Unit the
	// table's unit's name; PerFirer the work of one Effect, for Work (Warfare, whose
	// firers' work differs, prices its map itself).
	PerInch  float64
	Unit     string
	PerFirer int64
}

// Work is the map's work: every firer's effect at every point, convolved into the copy's
// losses (for PriceDanger).
func (c CopyDanger) Work() (int64, string) {
	per := int64(len(c.Firers)) * (c.PerFirer + int64(c.Left+1)*int64(c.Left+1))
	w, why := PointsWork(c.Points(), per)
	return w, fmt.Sprintf("%s, %d firers", why, len(c.Firers))
}

// Map works out q's map: at each point the copy's losses to every firer in reach, read
// under q's objective (DangerValue).
func (c CopyDanger) Map(ctx context.Context, q DangerQuery) (*DangerMap, error) {
	m := NewDangerMap(q, c.Lattice, c.Unit, "a copy of "+c.Copy, c.Expected)
	return m.Filled(ctx, func() PointFunc {
		d, tmp := make([]float64, c.Left+1), make([]float64, c.Left+1)
		return func(col, row int, seen map[string]bool) (float64, error) {
			x, y := c.At(col, row, c.PerInch)
			clear(d)
			d[0] = 1
			for i, id := range c.Firers {
				if e := c.Effect(i, x, y); e != nil {
					seen[id] = true
					Convolve(tmp, d, e)
					d, tmp = tmp, d
				}
			}
			return DangerValue(m.Objective, d, c.Left), nil
		}
	})
}

// CopyPlaces are the DangerPlaces of a system whose maps place a copy of a unit of the
// battle (CopyPlace): each of units of which of says its id, name and side and that it
// may be copied (one with something left to lose). Warfare's, WarStrike's and
// Republique's places are these too.
func CopyPlaces[U any](units []U, of func(*U) (id, name, side string, ok bool)) []DangerPlace {
	var out []DangerPlace
	for i := range units {
		if id, name, side, ok := of(&units[i]); ok {
			out = append(out, CopyPlace(id, name, side))
		}
	}
	return out
}
