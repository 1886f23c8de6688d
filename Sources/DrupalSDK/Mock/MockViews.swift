import FoundationEssentials

/// Views REST export displays (drupal-http-api.md §6, recordings 40-40d): a bare JSON array of
/// "fields" rows rendered as strings, a full pager on `?page=N` (0-based), and an exposed
/// "contains" filter on the label field named like it (`title` for nodes).
extension MockState {
    func view(_ request: MockRequest, _ view: View) throws -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return MockReply.methodNotAllowed(request, allow: ["GET"])
        }
        // The display has one format, so `_format` may be left out; no route serves another.
        if let format = request.format, format != "json" {
            throw MockAnswer(response: MockReply.noRouteForFormat(format, supported: "json"))
        }
        let labelKey = MockEntityKind.labelKey(view.entityType)
        let bundleKey = MockEntityKind.bundleKey(view.entityType)
        let filter = request.queryValue(labelKey)?.lowercased() ?? ""
        let rows = (entities[view.entityType] ?? [:])
            .sorted { (Int($0.key) ?? 0, $0.key) < (Int($1.key) ?? 0, $1.key) }
            .map(\.value)
            .filter { entity in
                MockFields.firstValue(entity["status"]) != "false"
                    && (view.bundle == nil || bundleKey.flatMap { MockFields.firstValue(entity[$0]) } == view.bundle)
                    && (filter.isEmpty || (MockFields.firstValue(entity[labelKey]) ?? "").lowercased().contains(filter))
            }
        // Drupal's pager treats a page number it cannot read as page 0.
        let page = max(0, Int(request.queryValue("page") ?? "") ?? 0)
        let start = page.multipliedReportingOverflow(by: view.itemsPerPage)
        let pageRows = start.overflow || start.partialValue >= rows.count ? []
            : rows[start.partialValue..<(start.partialValue + min(rows.count - start.partialValue, view.itemsPerPage))]
        return MockReply.json(200, .array(pageRows.map { row($0, view.entityType, labelKey) }))
    }

    /// One "fields" row: rendered output as strings, like recording 40.
    private func row(_ entity: [String: JSONValue], _ entityType: String, _ labelKey: String) -> JSONValue {
        let idKey = MockEntityKind.idKey(entityType)
        var row: [String: JSONValue] = [idKey: .string(MockFields.firstValue(entity[idKey]) ?? "")]
        row["uuid"] = .string(MockFields.firstValue(entity["uuid"]) ?? "")
        // A plain-text field's output is escaped HTML.
        row[labelKey] = .string(MockState.escapeHTML(MockFields.firstValue(entity[labelKey]) ?? ""))
        let created = MockFields.firstValue(entity["created"]) ?? ""
        row["created"] = .string("<time datetime=\"\(created)\">\(created)</time>\n")
        row["body"] = .string(MockFields.firstValue(entity["body"]) ?? "")
        return .object(row)
    }

    /// Escapes &, < and >, as the fake server renders a label (no recording shows quotes).
    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
