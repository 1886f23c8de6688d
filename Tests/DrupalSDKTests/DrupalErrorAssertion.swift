import XCTest
@testable import DrupalSDK

extension XCTestCase {
    /// The DrupalError an operation throws; fails the test when it succeeds or throws another type.
    func drupalError(_ operation: () async throws -> Void, file: StaticString = #filePath,
                     line: UInt = #line) async -> DrupalError? {
        do {
            try await operation()
            XCTFail("expected a DrupalError", file: file, line: line)
        } catch let error as DrupalError {
            return error
        } catch {
            XCTFail("expected a DrupalError, got \(error)", file: file, line: line)
        }
        return nil
    }
}
