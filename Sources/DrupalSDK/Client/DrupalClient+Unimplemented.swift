import FoundationEssentials

extension DrupalClient {
    /// A client whose every operation throws `.unimplemented` naming itself: start from it in
    /// tests and replace only the closures the code under test should call.
    public static var unimplemented: DrupalClient {
        @Sendable func fail(_ name: String) -> DrupalError {
            DrupalError(.unimplemented, "DrupalClient.\(name) is unimplemented")
        }
        return DrupalClient(
            login: { _, _ in throw fail("login") },
            logout: { throw fail("logout") },
            loginStatus: { throw fail("loginStatus") },
            csrfToken: { throw fail("csrfToken") },
            refreshCSRFToken: { throw fail("refreshCSRFToken") },
            setAuthentication: { _ in throw fail("setAuthentication") },
            currentUser: { nil },
            hasSession: { false },
            forgetSession: {},
            get: { _, _ in throw fail("get") },
            create: { _, _ in throw fail("create") },
            update: { _, _, _ in throw fail("update") },
            delete: { _, _ in throw fail("delete") },
            view: { _, _ in throw fail("view") },
            uploadFile: { _ in throw fail("uploadFile") },
            request: { _ in throw fail("request") },
            addObserver: { _ in ObserverToken(id: 0) },
            removeObserver: { _ in }
        )
    }
}
