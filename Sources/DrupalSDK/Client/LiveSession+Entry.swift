import FoundationEssentials

/// The two entry points every call comes through (`DrupalClient.start` and `.run` of a live
/// client): the operation is prepared (checked) once, then runs without a task when it is one
/// plain request the transport can start by itself, else as a task on the transport's executor.
extension LiveSession {
    func start(_ operation: DrupalOperation, _ completion: @escaping DrupalClient.Completion) throws
        -> DrupalClient.Cancel {
        let prepared = try prepare(operation)
        if let request = prepared.plainRequest, let startTransfer = transport.start, runsWithoutTask(request) {
            return try startWithoutTask(request, startTransfer, completion)
        }
        let task = Task(executorPreference: transport.executor) { completion(await self.execute(prepared)) }
        return { task.cancel() }
    }

    func run(_ operation: DrupalOperation, _ register: (@escaping DrupalClient.Cancel) -> Void) throws
        -> DrupalClient.Outcome {
        let prepared = try prepare(operation)
        if let request = prepared.plainRequest, let drive = transport.driveBlocking, runsWithoutTask(request) {
            return try runWithoutTask(request, drive, register)
        }
        guard let runBlocking = transport.runBlocking else {
            return try DrupalClient.waitForTask(operation, register) { try await self.execute(prepared).get() }
        }
        let outcome = OutcomeBox()
        runBlocking({ task in register { task.cancel() } }, { outcome.set(await self.execute(prepared)) })
        return outcome.take() ?? .failure(DrupalError(.internal, "\(operation.name) ended without an outcome"))
    }
}
