package annotations

import (
	"go/token"
	"strconv"
	"strings"
	"time"
)

// Rate is a tool's rate limit, rate=<count>/<period> burst=<n> on //wink:tool: a token bucket that holds
// Burst tokens and refills Count tokens every Per, one bucket per caller of the tool.
type Rate struct {
	Count    int64          // calls per period, 1..MaxRateCount
	Per      time.Duration  // the period, MinRatePeriod..MaxRatePeriod
	Burst    int64          // the bucket's size, 1..MaxRateCount; Count when burst= is not given
	HasBurst bool           // burst= was given
	Pos      token.Position // position of the rate value
	BurstPos token.Position // position of the burst value; zero when not given
}

// The bounds a rate= and a burst= value must keep.
const (
	MaxRateCount  = 1_000_000_000    // the largest count and burst
	MinRatePeriod = time.Millisecond // the shortest period
	MaxRatePeriod = 24 * time.Hour   // the longest period
	// MinRateInterval is the shortest time between two tokens (period/count): a million calls a second.
	MinRateInterval = time.Microsecond
)

const rateForm = "write rate=<count>/<period>, the period s, m, h or a duration such as 10s (for example rate=10/s or rate=100/m)"

// rate parses the rate= and burst= keys of //wink:tool into d.Rate.
func (p *dirParser) rate(d *Tool, args map[string]arg) {
	a, hasRate := args["rate"]
	b, hasBurst := args["burst"]
	if !hasRate {
		if hasBurst && b.kind != argBad {
			p.errorf(b.keyOff, "burst needs a rate: write rate=<count>/<period> burst=<count> (for example rate=10/s burst=20)")
		}
		return
	}
	v, ok := p.word(a)
	if !ok {
		return
	}
	off := func(i int) int { // the offset of byte i of v; the opening quote when v was quoted
		if a.kind == argBare {
			return a.valOff + i
		}
		return a.valOff
	}
	r := &Rate{Pos: advance(p.pos, a.valOff)}
	countText, period, slash := strings.Cut(v, "/")
	if !slash {
		p.errorf(off(0), "invalid rate "+strconv.QuoteToASCII(v)+": missing '/'; "+rateForm)
		return
	}
	good := true
	n, err := strconv.ParseInt(countText, 10, 64)
	switch {
	case !allDigits(countText):
		p.errorf(off(0), "invalid rate "+strconv.QuoteToASCII(v)+": the count "+strconv.QuoteToASCII(countText)+" is not a whole number; "+rateForm)
		good = false
	case err != nil || n > MaxRateCount:
		p.errorf(off(0), "rate count "+countText+" is too large: at most "+strconv.Itoa(MaxRateCount)+" calls per period")
		good = false
	case n < 1:
		p.errorf(off(0), "rate count must be at least 1: a tool that may never be called needs no rate; remove the tool or raise the count")
		good = false
	}
	per, perOK := ratePeriod(period)
	pOff := off(len(countText) + 1)
	switch {
	case !perOK:
		p.errorf(pOff, "invalid rate period "+strconv.QuoteToASCII(period)+": expected ms, s, m, h or a duration such as 10s or 500ms; "+rateForm)
		good = false
	case per < MinRatePeriod || per > MaxRatePeriod:
		p.errorf(pOff, "rate period "+period+" is out of range: it must be from 1ms to 24h")
		good = false
	case good && per/time.Duration(n) < MinRateInterval:
		p.errorf(off(0), "rate "+v+" is more than a million calls a second, which no limit needs; raise the period or lower the count")
		good = false
	}
	r.Count, r.Per, r.Burst = n, per, n
	if hasBurst {
		bv, ok := p.word(b)
		if !ok {
			return
		}
		bOff := b.valOff
		m, err := strconv.ParseInt(bv, 10, 64)
		switch {
		case !allDigits(bv):
			p.errorf(bOff, "invalid burst "+strconv.QuoteToASCII(bv)+": expected a whole number of calls, at least 1 (for example burst=20)")
			good = false
		case err != nil || m > MaxRateCount:
			p.errorf(bOff, "burst "+bv+" is too large: at most "+strconv.Itoa(MaxRateCount))
			good = false
		case m < 1:
			p.errorf(bOff, "burst must be at least 1: the bucket must hold the call it admits")
			good = false
		}
		r.Burst, r.HasBurst, r.BurstPos = m, true, advance(p.pos, bOff)
	}
	if good {
		d.Rate = r
	}
}

// ratePeriod parses a period: "ms", "s", "m", "h", or a duration time.ParseDuration accepts.
func ratePeriod(s string) (time.Duration, bool) {
	switch s {
	case "ms":
		return time.Millisecond, true
	case "s":
		return time.Second, true
	case "m":
		return time.Minute, true
	case "h":
		return time.Hour, true
	case "":
		return 0, false
	}
	if s[0] < '0' || s[0] > '9' { // no sign: a period is positive
		return 0, false
	}
	d, err := time.ParseDuration(s)
	return d, err == nil
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
