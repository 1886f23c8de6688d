/// The fields of a request value, boxed: every copy of the value shares one box until a copy is
/// changed, which then gets a box of its own first. A request is handed through several layers
/// and closures; copying all of its fields at each hop (a retain per reference) cost more than
/// building it.
struct SharedFields<Box: CopyableBox>: @unchecked Sendable {
    private var box: Box

    init(_ box: Box) { self.box = box }

    /// The box, for reading.
    var read: Box { box }

    /// The box, for writing: copied first when another value shares it, so a shared box is never
    /// written (which is what makes the box safe to send).
    mutating func write() -> Box {
        if !isKnownUniquelyReferenced(&box) { box = box.copy() }
        return box
    }
}

/// A class holding a value's fields, able to copy itself.
protocol CopyableBox: AnyObject {
    func copy() -> Self
}
