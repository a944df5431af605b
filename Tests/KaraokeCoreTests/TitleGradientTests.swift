import Testing
@testable import KaraokeCore

/// Whether two colours differ by at most `tolerance` in every channel (rounding of the blend).
private func close(_ a: RGB, _ b: RGB, tolerance: Int = 1) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
        && abs(Int(a.blue) - Int(b.blue)) <= tolerance
}

/// A gradient with `n` distinct colours.
private func gradient(_ n: Int) -> TitleGradient {
    let palette: [RGB] = [
        RGB(hex: 0xFF0000), RGB(hex: 0x00FF00), RGB(hex: 0x0000FF), RGB(hex: 0xFFFFFF),
        RGB(hex: 0x123456), RGB(hex: 0xFEDCBA), RGB(hex: 0x808000),
    ]
    return TitleGradient(colors: Array(palette.prefix(n)), cycle: 4)
}

@Suite("Title gradient")
struct TitleGradientTests {
    @Test("the default colours are pink, orange, yellow, mint, cyan and purple")
    func defaults() {
        #expect(
            TitleGradient().colors == [
                RGB(hex: 0xFF2D55), RGB(hex: 0xFF9500), RGB(hex: 0xFFCC00),
                RGB(hex: 0x00C7BE), RGB(hex: 0x32ADE6), RGB(hex: 0xAF52DE),
            ])
        #expect(TitleGradient().cycle == 4)
        #expect(TitleGradient(colors: []).colors == TitleGradient.defaultColors)
        #expect(TitleGradient(cycle: 0).cycle == 4)
    }

    @Test("emptying the colours or zeroing the cycle later falls back to the defaults, not a crash")
    func settersFallBack() {
        var g = TitleGradient(colors: [RGB(hex: 0x123456)], cycle: 2)
        g.colors = []
        #expect(g.colors == TitleGradient.defaultColors)
        #expect(g.color(at: 0, shift: 0) == TitleGradient.defaultColors[0])
        g.cycle = 0
        #expect(g.cycle == 4)
        g.cycle = .nan
        #expect(g.cycle == 4)
        #expect(g.shift(at: 1, still: false) == 0.25)
    }

    @Test(
        "the 2n + 1 stops c0…c(n−1) c0…c(n−1) c0 sit evenly on [0, 1], exact at their positions",
        arguments: [1, 2, 3, 6, 7])
    func stops(n: Int) {
        let g = gradient(n)
        for k in 0...(2 * n) {
            // Gradient position k / 2n is reached as (u + s) / 2; use s = 0 for the first half.
            let target = Double(k) / Double(n)
            let u = min(1, target), s = target - u
            #expect(g.color(at: u, shift: s) == g.colors[k % n], "stop \(k) of \(2 * n + 1)")
        }
    }

    @Test("between two stops the colour is the linear blend in RGB", arguments: [0.25, 0.5, 0.8])
    func interpolation(fraction: Double) {
        let g = gradient(3)
        for k in 0..<6 {
            // Gradient position (k + fraction) / 6 = (u + s) / 2.
            let target = (Double(k) + fraction) / 3
            let u = min(1, target), s = target - u
            let expected = g.colors[k % 3].mixed(with: g.colors[(k + 1) % 3], fraction)
            #expect(close(g.color(at: u, shift: s), expected), "between stops \(k) and \(k + 1)")
        }
    }

    @Test("the blend of red and blue half way is their per-channel mean")
    func blendValue() {
        let g = TitleGradient(colors: [RGB(hex: 0xFF0000), RGB(hex: 0x0000FF)])
        // Half way between stop 0 (u = 0) and stop 1 (u = 0.5).
        #expect(g.color(at: 0.25, shift: 0) == RGB(128, 0, 128))
    }

    @Test("one colour gives a flat title")
    func singleColour() {
        let g = TitleGradient(colors: [RGB(hex: 0x336699)])
        for u in stride(from: 0.0, through: 1, by: 0.1) {
            #expect(g.color(at: u, shift: 0.37) == RGB(hex: 0x336699))
        }
    }

    @Test("the gradient slides left: the colour at u with shift s is the colour at u + s without")
    func slidesLeft() {
        let g = TitleGradient()
        for u in stride(from: 0.0, through: 0.5, by: 0.05) {
            for s in stride(from: 0.0, through: 0.5, by: 0.1) {
                #expect(close(g.color(at: u, shift: s), g.color(at: u + s, shift: 0)))
            }
        }
    }

    @Test("the loop has no seam: just before the cycle ends every colour is back where it started")
    func seamless() {
        for n in [1, 2, 3, 6] {
            let g = gradient(n)
            for u in stride(from: 0.0, through: 1, by: 1.0 / 64) {
                #expect(close(g.color(at: u, shift: 1 - 1e-9), g.color(at: u, shift: 0)), "n \(n), u \(u)")
            }
        }
    }

    @Test("after a shift of s the title shows what was one title width to the right", arguments: [0.1, 0.45, 0.9])
    func wrapsByOneTitleWidth(s: Double) {
        let g = TitleGradient()
        for u in stride(from: 0.0, through: 1, by: 1.0 / 32) {
            // u + s beyond the title wraps back by one title width: the pattern repeats every width.
            let wrapped = u + s > 1 ? u + s - 1 : u + s
            #expect(close(g.color(at: u, shift: s), g.color(at: wrapped, shift: 0)), "u \(u)")
        }
    }

    @Test(
        "the shift is the fraction of the cycle, wrapping each cycle",
        arguments: [
            (time: 0.0, expected: 0.0), // the start
            (time: 1.0, expected: 0.25), // a quarter of a 4 s cycle
            (time: 3.0, expected: 0.75), // three quarters
            (time: 4.0, expected: 0.0), // a whole cycle
            (time: 9.0, expected: 0.25), // two cycles and a quarter
            (time: -1.0, expected: 0.75), // before 0 it still lands in [0, 1)
        ])
    func shift(time: Double, expected: Double) {
        let g = TitleGradient(cycle: 4)
        #expect(abs(g.shift(at: time, still: false) - expected) < 1e-12)
    }

    @Test("the shift follows --gradient-duration")
    func shiftFollowsCycle() {
        let g = TitleGradient(cycle: 10)
        #expect(abs(g.shift(at: 2.5, still: false) - 0.25) < 1e-12)
    }

    @Test("under reduce motion the shift is always 0", arguments: [0.0, 1.3, 3.99, 4.0, 123.4])
    func stillShift(time: Double) {
        #expect(TitleGradient().shift(at: time, still: true) == 0)
    }

    @Test("u outside [0, 1] is held at the ends")
    func clampsU() {
        let g = gradient(3)
        #expect(g.color(at: -0.5, shift: 0) == g.colors[0])
        #expect(g.color(at: 1.5, shift: 0.9) == g.colors[0])
    }
}
