/**
 * The optional observer of operation calls (`createDocsbase({ observe })`), which the test double
 * journals and faults calls with. `invoke` tells it of every call, HTTP or in process, at the one
 * place both paths meet; without one, `invoke` pays a property read. Structural types only, so
 * that the world can carry it without importing the registry.
 */

/** One call of an operation, as the observer sees it. */
export interface ObservedCall {
  /** The operation's `operationId`, method (lower case) and path as the registry writes it. */
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** The caller's user id; undefined for an anonymous call. */
  readonly userId: string | undefined;
  /** The input as it arrived; `http` is the request when the call came over HTTP. */
  readonly raw: {
    readonly params: Record<string, unknown>;
    readonly query: Record<string, unknown>;
    readonly body: unknown;
    readonly http?: { request(): Request } | undefined;
  };
  /** The validated input, set once validation passed (before `admitted`). */
  input?: { readonly params: unknown; readonly query: unknown; readonly body: unknown };
}

/** An answer: the operation's outcome, or the observer's own in its stead. */
export interface ObservedAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

export interface InvokeObserver {
  /**
   * Called once the input is valid and before the operation's transaction opens: may wait, throw
   * (the call rejects with that error), or answer in the operation's stead, which then never runs.
   */
  admitted(call: ObservedCall): Promise<ObservedAnswer | undefined> | ObservedAnswer | undefined;
  /**
   * Called when the call ends, answered or refused, whether or not its input was valid; the call
   * resolves once what it returns settles (the test double runs the jobs a call queued due now).
   */
  ended(
    call: ObservedCall,
    result: { readonly answer: ObservedAnswer } | { readonly error: unknown },
  ): void | Promise<void>;
}
