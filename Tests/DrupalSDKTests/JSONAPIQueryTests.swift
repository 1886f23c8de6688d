import XCTest
@testable import DrupalSDK

/// The query builder writes what drupal-jsonapi-params writes for the same calls. The expected
/// strings are that library's output (the Python port, drupal-jsonapi-params 0.1.0, whose
/// get_query_string() the Python tests also compare against directly).
final class JSONAPIQueryTests: XCTestCase {
    private func query(_ build: (inout JSONAPIQuery) throws -> Void) throws -> String {
        var query = JSONAPIQuery()
        try build(&query)
        return query.queryString
    }

    func testShorthandForms() throws {
        XCTAssertEqual(try query { try $0.filter("title", "Article 3") }, "filter%5Btitle%5D=Article%203")
        XCTAssertEqual(try query { try $0.filter("title", "Art", operator: .startsWith); try $0.pageLimit(2) },
                       "filter%5Btitle%5D%5Bvalue%5D=Art&filter%5Btitle%5D%5Boperator%5D=STARTS_WITH&page%5Blimit%5D=2")
        XCTAssertEqual(try query { try $0.filter("title", "Article 1", operator: .notEqual) },
                       "filter%5Btitle%5D%5Bvalue%5D=Article%201&filter%5Btitle%5D%5Boperator%5D=%3C%3E")
    }

    func testListsAndNull() throws {
        XCTAssertEqual(try query { try $0.filter("drupal_internal__nid", values: ["1", "3", "5"], operator: .in) },
                       "filter%5Bdrupal_internal__nid%5D%5Bcondition%5D%5Bpath%5D=drupal_internal__nid"
                       + "&filter%5Bdrupal_internal__nid%5D%5Bcondition%5D%5Bvalue%5D%5B0%5D=1"
                       + "&filter%5Bdrupal_internal__nid%5D%5Bcondition%5D%5Bvalue%5D%5B1%5D=3"
                       + "&filter%5Bdrupal_internal__nid%5D%5Bcondition%5D%5Bvalue%5D%5B2%5D=5"
                       + "&filter%5Bdrupal_internal__nid%5D%5Bcondition%5D%5Boperator%5D=IN")
        XCTAssertEqual(try query { try $0.filter("revision_log", nil, operator: .isNull) },
                       "filter%5Brevision_log%5D%5Bcondition%5D%5Bpath%5D=revision_log"
                       + "&filter%5Brevision_log%5D%5Bcondition%5D%5Boperator%5D=IS%20NULL")
        XCTAssertEqual(try query { try $0.filter("created", values: ["1", "9"], operator: .between); try $0.filter("title", "é ü,/&=?") },
                       "filter%5Bcreated%5D%5Bcondition%5D%5Bpath%5D=created"
                       + "&filter%5Bcreated%5D%5Bcondition%5D%5Bvalue%5D%5B0%5D=1"
                       + "&filter%5Bcreated%5D%5Bcondition%5D%5Bvalue%5D%5B1%5D=9"
                       + "&filter%5Bcreated%5D%5Bcondition%5D%5Boperator%5D=BETWEEN"
                       + "&filter%5Btitle%5D=%C3%A9%20%C3%BC%2C%2F%26%3D%3F")
    }

    /// Recording 113: title = Article 1 OR (uid.name = editor AND field_tags.name = beta).
    func testNestedGroups() throws {
        let text = try query {
            try $0.group("or", conjunction: .or)
            try $0.filter("title", "Article 1", memberOf: "or")
            try $0.group("and", conjunction: .and, memberOf: "or")
            try $0.filter("uid.name", "editor", memberOf: "and")
            try $0.filter("field_tags.name", "beta", memberOf: "and")
        }
        XCTAssertEqual(text, "filter%5Bor%5D%5Bgroup%5D%5Bconjunction%5D=OR"
                       + "&filter%5Btitle%5D%5Bcondition%5D%5Bpath%5D=title&filter%5Btitle%5D%5Bcondition%5D%5Bvalue%5D=Article%201"
                       + "&filter%5Btitle%5D%5Bcondition%5D%5BmemberOf%5D=or"
                       + "&filter%5Band%5D%5Bgroup%5D%5Bconjunction%5D=AND&filter%5Band%5D%5Bgroup%5D%5BmemberOf%5D=or"
                       + "&filter%5Buid.name%5D%5Bcondition%5D%5Bpath%5D=uid.name"
                       + "&filter%5Buid.name%5D%5Bcondition%5D%5Bvalue%5D=editor&filter%5Buid.name%5D%5Bcondition%5D%5BmemberOf%5D=and"
                       + "&filter%5Bfield_tags.name%5D%5Bcondition%5D%5Bpath%5D=field_tags.name"
                       + "&filter%5Bfield_tags.name%5D%5Bcondition%5D%5Bvalue%5D=beta"
                       + "&filter%5Bfield_tags.name%5D%5Bcondition%5D%5BmemberOf%5D=and")
    }

    /// Regression: a group could be made a member of itself, or of a group that is its member:
    /// a filter tree the site cannot build, sent as it was.
    func testAGroupCannotBeAMemberOfItself() throws {
        var query = JSONAPIQuery()
        XCTAssertThrowsError(try query.group("g", memberOf: "g"))
        try query.group("a")
        try query.group("b", memberOf: "a")
        try query.group("c", memberOf: "b")
        XCTAssertThrowsError(try query.group("a", memberOf: "c")) { error in
            XCTAssertEqual((error as? DrupalError)?.code, .invalidArgument)
        }
        try query.group("a", conjunction: .and)   // replacing it where it stands, still the root: fine
        XCTAssertTrue(query.queryString.contains("filter%5Bc%5D%5Bgroup%5D%5BmemberOf%5D=b"))
    }

    /// A path filtered twice gets a numbered key, and numbered keys come first (JavaScript
    /// object order), as in drupal-jsonapi-params.
    func testGeneratedKeysAndTheirOrder() throws {
        XCTAssertEqual(try query {
            try $0.filter("title", "a"); try $0.filter("title", "b", operator: .contains); try $0.filter("title", "c")
        }, "filter%5B1%5D%5Bcondition%5D%5Bpath%5D=title&filter%5B1%5D%5Bcondition%5D%5Bvalue%5D=b"
           + "&filter%5B1%5D%5Bcondition%5D%5Boperator%5D=CONTAINS&filter%5B2%5D%5Bcondition%5D%5Bpath%5D=title"
           + "&filter%5B2%5D%5Bcondition%5D%5Bvalue%5D=c&filter%5Btitle%5D=a")
        XCTAssertEqual(try query {
            try $0.filter("title", "a", key: "t"); try $0.filter("title", "b", key: "t"); try $0.filter("x", "y", key: "t")
        }, "filter%5Bt%5D%5Bcondition%5D%5Bpath%5D=title&filter%5Bt%5D%5Bcondition%5D%5Bvalue%5D=a"
           + "&filter%5Bt--1%5D%5Bcondition%5D%5Bpath%5D=title&filter%5Bt--1%5D%5Bcondition%5D%5Bvalue%5D=b"
           + "&filter%5Bt--2%5D%5Bcondition%5D%5Bpath%5D=x&filter%5Bt--2%5D%5Bcondition%5D%5Bvalue%5D=y")
        XCTAssertEqual(try query {
            try $0.group("g", conjunction: .and)
            try $0.filter("a", "1", memberOf: "g"); try $0.filter("a", "2", memberOf: "g"); try $0.filter("a", "3")
        }, "filter%5B2%5D%5Bcondition%5D%5Bpath%5D=a&filter%5B2%5D%5Bcondition%5D%5Bvalue%5D=2"
           + "&filter%5B2%5D%5Bcondition%5D%5BmemberOf%5D=g&filter%5B3%5D%5Bcondition%5D%5Bpath%5D=a"
           + "&filter%5B3%5D%5Bcondition%5D%5Bvalue%5D=3&filter%5Bg%5D%5Bgroup%5D%5Bconjunction%5D=AND"
           + "&filter%5Ba%5D%5Bcondition%5D%5Bpath%5D=a&filter%5Ba%5D%5Bcondition%5D%5Bvalue%5D=1"
           + "&filter%5Ba%5D%5Bcondition%5D%5BmemberOf%5D=g")
    }

    /// Regression: a generated key could be one already taken by an explicit key ("2"), and the
    /// site keeps the last of two equal keys: a condition was lost without a word. A group could
    /// also replace a condition of the same key.
    func testNoConditionIsLostToAKeyTakenBefore() throws {
        var query = JSONAPIQuery()
        try query.filter("drupal_internal__nid", "1", operator: .greater, key: "2")
        try query.filter("title", "Article 4", operator: .notEqual)
        try query.filter("title", "Article 5", operator: .notEqual)
        // The filters' top-level keys: one each.
        func keys() -> Set<String> {
            Set(query.queryString.components(separatedBy: "&").compactMap { $0.components(separatedBy: "%5D").first })
        }
        XCTAssertEqual(keys(), ["filter%5B2", "filter%5Btitle", "filter%5B3"], query.queryString)
        XCTAssertThrowsError(try query.group("2", conjunction: .or), "a group would replace the condition \"2\"")
        XCTAssertEqual(keys().count, 3)
        // JSON:API answers ?_format with 406.
        XCTAssertThrowsError(try query.parameter("_format", "json"))
        // Input that would change meaning instead of being refused: "--title", paths smuggled
        // through a comma, a value IS NULL would drop.
        XCTAssertThrowsError(try query.sort("-title", descending: true))
        XCTAssertThrowsError(try query.sort("title,-nid"))
        XCTAssertThrowsError(try query.include(["uid,field_tags"]))
        XCTAssertThrowsError(try query.fields("node--article", ["title,body"]))
        XCTAssertThrowsError(try query.filter("title", "x", operator: .isNull))
        XCTAssertEqual(keys().count, 3, "nothing refused was kept")
    }

    func testSortPageIncludeFieldsAndParameters() throws {
        XCTAssertEqual(try query {
            try $0.sort("uid.name"); try $0.sort("title", descending: true)
            try $0.fields("node--article", ["title", "uid"]); try $0.include(["uid", "field_tags"])
            try $0.pageOffset(4); try $0.pageLimit(2)
        }, "include=uid%2Cfield_tags&page%5Boffset%5D=4&page%5Blimit%5D=2&sort=uid.name%2C-title"
           + "&fields%5Bnode--article%5D=title%2Cuid")
        XCTAssertEqual(try query { try $0.resourceVersion("rel:latest-version"); try $0.fields("node--article", ["title"]) },
                       "fields%5Bnode--article%5D=title&resourceVersion=rel%3Alatest-version")
    }

    func testBadInputIsRefusedWhenAdded() {
        var query = JSONAPIQuery()
        XCTAssertThrowsError(try JSONAPIQuery.Operator(name: "LIKE"))
        XCTAssertThrowsError(try query.filter("title", nil))
        XCTAssertThrowsError(try query.filter("title", "x", operator: .in))
        XCTAssertThrowsError(try query.filter("nid", values: ["1"], operator: .between))
        XCTAssertThrowsError(try query.filter("nid", values: [], operator: .in))
        XCTAssertThrowsError(try query.filter("nid", values: ["1", "2"], operator: .equal))
        XCTAssertThrowsError(try query.filter("", "x"))
        XCTAssertThrowsError(try query.filter("title", "a\0b"))
        XCTAssertThrowsError(try query.filter("nid", values: ["1", "\0"], operator: .in))
        XCTAssertThrowsError(try query.parameter("q", "a\0"))
        XCTAssertThrowsError(try query.filter("tit\nle", "x"), "a name holds no control character")
        XCTAssertThrowsError(try query.pageLimit(0))
        XCTAssertThrowsError(try query.pageOffset(-1))
        XCTAssertThrowsError(try query.resourceVersion("latest"))
        XCTAssertThrowsError(try query.resourceVersion("id:"))
        XCTAssertThrowsError(try query.parameter("page[limit]", "3"))
        XCTAssertThrowsError(try JSONAPIQuery.Conjunction(name: "XOR"))
        XCTAssertTrue(query.isEmpty, "nothing refused was kept")
        XCTAssertNoThrow(try query.resourceVersion("id:12"))
    }

    /// Regression: a value with a tab or a line break was refused; percent-encoded, it is
    /// sent as given (drupal-jsonapi-params' string: Python's test_jsonapi compares them).
    func testValuesMayHoldControlCharactersButNUL() throws {
        var query = JSONAPIQuery()
        try query.filter("title", "a\tb\r\nc")
        try query.filter("body.value", values: ["x\u{7F}", "\u{1B}"], operator: .in)
        try query.parameter("q", "line\nbreak")
        XCTAssertEqual(query.queryString, "filter%5Btitle%5D=a%09b%0D%0Ac"
            + "&filter%5Bbody.value%5D%5Bcondition%5D%5Bpath%5D=body.value"
            + "&filter%5Bbody.value%5D%5Bcondition%5D%5Bvalue%5D%5B0%5D=x%7F"
            + "&filter%5Bbody.value%5D%5Bcondition%5D%5Bvalue%5D%5B1%5D=%1B"
            + "&filter%5Bbody.value%5D%5Bcondition%5D%5Boperator%5D=IN&q=line%0Abreak")
    }

    func testResourceTypes() throws {
        let type = try JSONAPIResourceType("node--article")
        XCTAssertEqual(type.entityType, "node")
        XCTAssertEqual(type.bundle, "article")
        XCTAssertEqual(try JSONAPIResourceType("taxonomy_term", "tags").description, "taxonomy_term--tags")
        for bad in ["node", "node--", "--article", "Node--article", "node--art/icle", "node--a b"] {
            XCTAssertThrowsError(try JSONAPIResourceType(bad), bad)
        }
    }

    func testPagingOfANextLink() {
        let link = "http://site/jsonapi/node/article?fields%5Bnode--article%5D=title&page%5Boffset%5D=50&page%5Blimit%5D=50"
        XCTAssertEqual(JSONAPIPageWindow.paging(of: link)?.offset, 50)
        XCTAssertEqual(JSONAPIPageWindow.paging(of: link)?.size, 50)
        XCTAssertNil(JSONAPIPageWindow.paging(of: "http://site/jsonapi/node/article?page%5Boffset%5D=50"))
    }
}
