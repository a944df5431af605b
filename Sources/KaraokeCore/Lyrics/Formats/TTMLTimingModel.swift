/// The timing of a TTML body: the timed elements as written, and their absolute intervals, by the W3C
/// timing model (TTML2 §12, which TTML1 shares; DESIGN §7.5) or, for files that write absolute times in
/// nested elements (Apple Music, AMLL), read as absolute.
///
/// The W3C rules, for the elements kept here (`body`, `div`, `p`, `span` with `begin`, `end`, `dur` or
/// `timeContainer`, and every child of a `seq` container):
/// 1. A `par` container (the default) begins its children at its own begin; a `seq` container begins
///    each child where the one before it ends, the first at its own begin.
/// 2. `begin` is an offset from that point (0 when absent); `end` too; `dur` counts from the element's
///    begin. With both `end` and `dur`, the earlier end wins.
/// 3. An element is never active past its parent's end: its end is clipped to it, and an element that
///    would begin at or after it is never active (the line builder skips such a line with a warning,
///    and keeps such a word's text in its line, untimed, so no word goes missing).
/// 4. An element that says nothing about time takes its parent's interval; so a line or word without an
///    end is open (the line builder ends it at the next line) but still clipped by (3).
/// 5. For rule 1, a `seq` child without an end of its own ends when all its children have ended (or,
///    when that is not known either, where it begins).
/// 6. Nothing is on the timeline until it or an ancestor gives a time or sits in a `seq` container: a
///    file with no times at all has no timed lines.
/// 7. Text directly inside a `seq` container is an anonymous span, whose implicit duration there is 0: it
///    is never shown (the line builder drops it), and a `seq` container holding only such text ends
///    where it begins.
struct TTMLTimingModel {
    /// One element's timing attributes, in milliseconds, and its place in the tree.
    struct Node {
        /// The nearest ancestor that has a node.
        var parent: Int?
        /// `begin`, as written.
        var begin: Int?
        /// `end`, as written.
        var end: Int?
        /// `dur`.
        var duration: Int?
        /// Whether it is a `seq` container: its children follow one another.
        var isSequence = false
        /// Whether it gives a time (`begin`, `end` or `dur`) or follows a sibling in a `seq` container:
        /// a span like that is a word.
        var isTimed = false
        /// Whether a `seq` container holds text directly (rule 7).
        var hasAnonymousText = false
    }

    /// The absolute times of every node.
    struct Resolution {
        /// Each node's begin, nil when it is not on the timeline.
        var begins: [Int?]
        /// Each node's end, nil when it is open.
        var ends: [Int?]
        /// The end of each node's parent interval, which an open end must not pass; nil for none.
        var limits: [Int?]
        /// The nodes that begin at or after their parent's end, and so are never shown.
        var isNeverActive: [Bool]
        /// Whether an element without times of its own takes its parent's interval (W3C files; not the
        /// files read as absolute, whose lines without times take their words' span).
        var inheritsIntervals: Bool
    }

    /// The nodes in document order, so a parent always comes before its children.
    var nodes: [Node] = []

    /// Whether nested times are absolute (Apple Music, AMLL) rather than relative to the parent (TTML).
    ///
    /// Every element with a `begin` inside an ancestor whose `begin` is later than 0 votes: absolute
    /// when its own `begin` is not earlier than the ancestor's. A tie reads the file as TTML says.
    func isAbsolute() -> Bool {
        var beginAncestor = [Int?](repeating: nil, count: nodes.count)
        var votes = 0
        for index in nodes.indices {
            guard let parent = nodes[index].parent else { continue }
            beginAncestor[index] = nodes[parent].begin != nil ? parent : beginAncestor[parent]
            guard let begin = nodes[index].begin, let ancestor = beginAncestor[index],
                let ancestorBegin = nodes[ancestor].begin, ancestorBegin > 0
            else { continue }
            votes += begin >= ancestorBegin ? 1 : -1
        }
        return votes > 0
    }

    /// Every node's absolute interval.
    func resolved() -> Resolution {
        isAbsolute() ? resolvedAsAbsolute() : resolvedByW3C()
    }

    /// Times as written: `begin` and `end` are absolute, `dur` counts from `begin`; no clipping.
    func resolvedAsAbsolute() -> Resolution {
        var resolution = Resolution(
            begins: nodes.map { $0.begin.map(clampTime) }, ends: [], limits: [],
            isNeverActive: [Bool](repeating: false, count: nodes.count),
            inheritsIntervals: false)
        resolution.ends = nodes.indices.map { index in
            let node = nodes[index]
            if let end = node.end { return clampTime(end) }
            return node.duration.map { clampTime((resolution.begins[index] ?? 0) + $0) }
        }
        resolution.limits = [Int?](repeating: nil, count: nodes.count)
        return resolution
    }

    /// Times by the W3C rules in the type's summary.
    func resolvedByW3C() -> Resolution {
        var resolution = Resolution(
            begins: [Int?](repeating: nil, count: nodes.count),
            ends: [Int?](repeating: nil, count: nodes.count),
            limits: [Int?](repeating: nil, count: nodes.count),
            isNeverActive: [Bool](repeating: false, count: nodes.count),
            inheritsIntervals: true)
        var children = [[Int]](repeating: [], count: nodes.count)
        var roots: [Int] = []
        for index in nodes.indices {
            if let parent = nodes[index].parent { children[parent].append(index) } else { roots.append(index) }
        }
        // The body's children begin at the document's begin.
        for root in roots {
            _ = resolve(root, syncBase: nil, limit: nil, children: children, into: &resolution)
        }
        return resolution
    }

    /// Resolves `index` and its subtree. `syncBase` is where its offsets count from (nil when nothing
    /// above it is on the timeline), `limit` its parent interval's end. Returns the end the next sibling
    /// of a `seq` container follows (rule 5), nil when unknown.
    ///
    /// Recursion is as deep as the element tree, which libxml2 keeps within 256 levels.
    private func resolve(
        _ index: Int, syncBase: Int?, limit: Int?, children: [[Int]],
        into resolution: inout Resolution
    ) -> Int? {
        let node = nodes[index]
        let gives = node.begin != nil || node.end != nil || node.duration != nil
        let base = syncBase ?? (gives ? 0 : nil)
        let begin = base.map { clampTime($0 + (node.begin ?? 0)) }
        var end: Int?
        if let base, let offset = node.end { end = clampTime(base + offset) }
        if let begin, let duration = node.duration { end = min(end ?? Int.max, clampTime(begin + duration)) }
        if let limit {
            if let begin, begin >= limit { resolution.isNeverActive[index] = true }
            end = end.map { min($0, limit) }
        }
        // An end before the begin (written so, or clipped) leaves an empty interval.
        if let begin, let endValue = end, endValue < begin { end = begin }
        resolution.begins[index] = resolution.isNeverActive[index] ? nil : begin
        resolution.ends[index] = resolution.isNeverActive[index] ? nil : end
        resolution.limits[index] = limit
        let childLimit = end ?? limit
        var latestChildEnd: Int? = nil
        var allChildrenEnd = !children[index].isEmpty
        // Rule 7: anonymous spans in a `seq` container last no time, so they end where they begin.
        if node.isSequence, node.hasAnonymousText, children[index].isEmpty {
            latestChildEnd = begin
            allChildrenEnd = begin != nil
        }
        if node.isSequence {
            var next = begin ?? 0
            for child in children[index] {
                let childEnd = resolve(child, syncBase: next, limit: childLimit, children: children, into: &resolution)
                next = childEnd ?? resolution.begins[child] ?? next
                if let childEnd {
                    latestChildEnd = max(latestChildEnd ?? childEnd, childEnd)
                } else {
                    allChildrenEnd = false
                }
            }
        } else {
            for child in children[index] {
                let childEnd = resolve(child, syncBase: begin, limit: childLimit, children: children, into: &resolution)
                if let childEnd {
                    latestChildEnd = max(latestChildEnd ?? childEnd, childEnd)
                } else {
                    allChildrenEnd = false
                }
            }
        }
        if resolution.isNeverActive[index] { return nil }
        if let end { return end }
        return allChildrenEnd ? latestChildEnd.map { max($0, begin ?? $0) } : nil
    }
}

/// The time within ±100 hours (`ByteScanner.timeLimit`): nothing that far is a real time, and sums
/// must not overflow.
func clampTime(_ value: Int) -> Int { min(max(value, -ByteScanner.timeLimit), ByteScanner.timeLimit) }
