import XCTest
@testable import DrupalSDK

/// The busy-poll budget: poll while answers come in the window, back off after one that did not.
final class BusyPollBudgetTests: XCTestCase {
    func testBacksOffAfterAMissAndTriesAgain() {
        var budget = BusyPollBudget()
        XCTAssertTrue(budget.shouldPoll())
        budget.record(answered: true)
        XCTAssertTrue(budget.shouldPoll())
        budget.record(answered: false)
        for wait in 0..<BusyPollBudget.backoff {
            XCTAssertFalse(budget.shouldPoll(), "wait \(wait) after a miss sleeps at once")
        }
        XCTAssertTrue(budget.shouldPoll(), "then one tries again")
        budget.record(answered: true)
        XCTAssertTrue(budget.shouldPoll())
    }
}
