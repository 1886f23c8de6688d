extension String {
    /// Every occurrence of `target` replaced (FoundationEssentials has no such method).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
