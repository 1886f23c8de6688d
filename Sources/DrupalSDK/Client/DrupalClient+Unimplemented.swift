import FoundationEssentials

extension DrupalClient {
    /// A client whose every operation fails with `.unimplemented` naming itself: start from it in
    /// tests and replace what the code under test should see (`start`, or `init(perform:)`).
    public static var unimplemented: DrupalClient {
        failing { DrupalError(.unimplemented, "DrupalClient.\($0.name) is unimplemented") }
    }

    /// A client whose every operation fails with the error `error(operation)` gives (in its
    /// completion, as an operation that ran and failed), and whose state changes are refused too.
    public static func failing(_ error: @escaping @Sendable (DrupalOperation) -> DrupalError) -> DrupalClient {
        DrupalClient(start: { operation, completion in
            completion(.failure(error(operation)))
            return {}
        }, run: { operation, _ in
            .failure(error(operation))
        }, setAuthentication: { _ in
            throw DrupalError(.unimplemented, "DrupalClient.setAuthentication is unimplemented")
        })
    }
}
