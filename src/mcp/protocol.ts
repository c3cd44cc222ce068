/**
 * The server side of MCP, as Sextant speaks it, over any transport with the SDK's `Transport`
 * shape (stdio and the service's sockets: stdio.ts; Streamable HTTP: service/http.ts). It answers
 * `initialize` (the protocol version negotiated as the SDK's server does), `ping` and
 * `logging/setLevel`, dispatches the other requests and notifications to handlers by method,
 * aborts a call's signal on `notifications/cancelled`, and sends notifications and the few
 * requests a server makes (`roots/list`). On the wire it is the SDK's `Server`, message for
 * message, without loading the SDK's schemas of every MCP message or its JSON-schema validator:
 * each handler checks the params it reads.
 * @module
 */
import type {
  ClientCapabilities,
  Implementation,
  InitializeResult,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  LoggingLevel,
  MessageExtraInfo,
  RequestId,
  ServerCapabilities,
  Transport,
  TransportSendOptions,
} from "../deps_start.ts";
import { ErrorCode, invalidParams, isObject, McpError } from "./jsonrpc.ts";

/** The newest protocol version, answered to a client that asks for one this server lacks. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
/** The protocol versions answered as asked (the SDK 1.32's list). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  LATEST_PROTOCOL_VERSION,
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];
/** MCP's logging levels, least severe first. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];
/** How long a request to the client waits for its answer, unless the caller says otherwise. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** A request's or a notification's params: a JSON object (`{}` when the message had none). */
export type Params = Record<string, unknown>;

/** A notification this server sends. */
export interface Notification {
  method: string;
  params?: Params;
}

/** What a request handler gets beside the params. */
export interface RequestExtra {
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  requestId: RequestId;
  /** The transport's session id (Streamable HTTP), if it has one. */
  sessionId?: string | undefined;
  /** The request's `_meta` (a progress token, Sextant's restore mark), if it is an object. */
  meta?: Params | undefined;
  /** A notification about this request (on HTTP, on the request's stream); none once cancelled. */
  sendNotification(notification: Notification): Promise<void>;
}

export type RequestHandler = (params: Params, extra: RequestExtra) => unknown;
export type NotificationHandler = (params: Params) => void | Promise<void>;

export interface McpServerOptions {
  capabilities: ServerCapabilities;
  /** What `initialize` tells the agent; omitted from the answer when empty. */
  instructions?: string;
}

/** A request this server made and waits on. */
interface Outgoing {
  settle(answer: { result: Params } | McpError): void;
}

export class McpServer {
  /** The client's `notifications/initialized` arrived. */
  oninitialized?: () => void;
  /** The connection closed (after the transport's own `onclose`). */
  onclose?: () => void;
  /** A message could not be read, handled or answered. */
  onerror?: (error: Error) => void;
  /** Notifications no handler is set for. */
  fallbackNotificationHandler?: (notification: Notification) => void | Promise<void>;

  readonly #info: Implementation;
  readonly #capabilities: ServerCapabilities;
  readonly #instructions: string | undefined;
  readonly #requestHandlers = new Map<string, RequestHandler>();
  readonly #notificationHandlers = new Map<string, NotificationHandler>();
  /** The requests being handled, by id: their signals abort on cancel and on close. */
  readonly #handling = new Map<RequestId, AbortController>();
  readonly #outgoing = new Map<number, Outgoing>();
  #nextId = 0;
  #transport: Transport | undefined;
  #clientCapabilities: ClientCapabilities | undefined;
  #clientInfo: Implementation | undefined;
  /** The least severe level the client wants logged (logging/setLevel); all until it says. */
  #logLevel: LoggingLevel | undefined;

  constructor(info: Implementation, options: McpServerOptions) {
    this.#info = info;
    this.#capabilities = options.capabilities;
    this.#instructions = options.instructions;
    this.setRequestHandler("initialize", (params) => this.#initialize(params));
    this.setRequestHandler("ping", () => ({}));
    this.setNotificationHandler("notifications/initialized", () => this.oninitialized?.());
    this.setNotificationHandler("notifications/cancelled", (params) => {
      const id = params.requestId;
      if (typeof id === "string" || typeof id === "number") {
        this.#handling.get(id)?.abort(params.reason);
      }
    });
    if (this.#capabilities.logging) {
      this.setRequestHandler("logging/setLevel", (params) => {
        const level = params.level;
        if (!LOGGING_LEVELS.includes(level as LoggingLevel)) {
          throw invalidParams(
            "logging/setLevel",
            `'level' must be one of ${LOGGING_LEVELS.join(", ")} (got ${JSON.stringify(level)}).`,
          );
        }
        this.#logLevel = level as LoggingLevel;
        return {};
      });
    }
  }

  /** Answer requests of `method` with `handler` (replacing any handler of that method). */
  setRequestHandler(method: string, handler: RequestHandler): void {
    this.#requestHandlers.set(method, handler);
  }

  /** Handle notifications of `method` with `handler` (replacing any handler of that method). */
  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.#notificationHandlers.set(method, handler);
  }

  /** What the client said it can do, once it sent `initialize`. */
  getClientCapabilities(): ClientCapabilities | undefined {
    return this.#clientCapabilities;
  }

  /** The client's name and version, once it sent `initialize`. */
  getClientVersion(): Implementation | undefined {
    return this.#clientInfo;
  }

  /**
   * Serve on `transport`, which this server then owns. Callbacks the caller set on it before
   * run first (a session's cleanup on close).
   */
  async connect(transport: Transport): Promise<void> {
    if (this.#transport) throw new Error("Already connected to a transport.");
    this.#transport = transport;
    const { onclose, onerror, onmessage } = transport;
    transport.onclose = () => {
      onclose?.();
      this.#closed();
    };
    transport.onerror = (error) => {
      onerror?.(error);
      this.onerror?.(error);
    };
    transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      onmessage?.(message, extra);
      this.#receive(message);
    };
    await transport.start();
  }

  /** Close the connection (the transport's `onclose` follows). */
  async close(): Promise<void> {
    await this.#transport?.close();
  }

  /** Send a notification; `options.relatedRequestId` ties it to a request (HTTP streams). */
  async notification(notification: Notification, options?: TransportSendOptions): Promise<void> {
    const transport = this.#transport;
    if (!transport) throw new Error("Not connected");
    await transport.send({ ...notification, jsonrpc: "2.0" } as JSONRPCNotification, options);
  }

  /** A logging notification, unless the client asked for more severe levels only. */
  async sendLoggingMessage(params: { level: LoggingLevel; logger?: string; data: unknown }) {
    if (!this.#capabilities.logging) return;
    const least = this.#logLevel;
    if (least && LOGGING_LEVELS.indexOf(params.level) < LOGGING_LEVELS.indexOf(least)) return;
    await this.notification({ method: "notifications/message", params });
  }

  async sendResourceUpdated(params: { uri: string }): Promise<void> {
    await this.notification({ method: "notifications/resources/updated", params });
  }

  async sendToolListChanged(): Promise<void> {
    await this.notification({ method: "notifications/tools/list_changed" });
  }

  /** The client's roots (`roots/list`); throws when its answer has no list of roots. */
  async listRoots(options: { timeout?: number } = {}): Promise<{ uri: string; name?: string }[]> {
    const result = await this.request("roots/list", undefined, options);
    const roots = result.roots;
    if (!Array.isArray(roots) || !roots.every((r) => isObject(r) && typeof r.uri === "string")) {
      throw new Error(`roots/list answered without a list of roots: ${JSON.stringify(result)}`);
    }
    return roots as { uri: string; name?: string }[];
  }

  /**
   * A request to the client, answered with its result. After `timeout` ms (or when `signal`
   * aborts) the request is cancelled: the client is told, and the promise rejects.
   */
  request(
    method: string,
    params: Params | undefined,
    options: { timeout?: number; signal?: AbortSignal } = {},
  ): Promise<Params> {
    return new Promise((resolve, reject) => {
      const transport = this.#transport;
      if (!transport) return reject(new Error("Not connected"));
      if (options.signal?.aborted) return reject(options.signal.reason);
      const id = this.#nextId++;
      const timeout = options.timeout ?? DEFAULT_REQUEST_TIMEOUT_MS;
      const timer = setTimeout(
        () => cancel(new McpError(ErrorCode.RequestTimeout, "Request timed out", { timeout })),
        timeout,
      );
      const done = () => {
        this.#outgoing.delete(id);
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      const cancel = (reason: unknown) => {
        done();
        transport.send({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id, reason: String(reason) },
        }).catch((error) => this.onerror?.(new Error(`Failed to send cancellation: ${error}`)));
        reject(
          reason instanceof McpError
            ? reason
            : new McpError(ErrorCode.RequestTimeout, String(reason)),
        );
      };
      const onAbort = () => cancel(options.signal?.reason);
      this.#outgoing.set(id, {
        settle: (answer) => {
          done();
          if (answer instanceof McpError) reject(answer);
          else resolve(answer.result);
        },
      });
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const message = { method, ...(params === undefined ? {} : { params }), jsonrpc: "2.0", id };
      transport.send(message as JSONRPCRequest).catch((error) => {
        done();
        reject(error);
      });
    });
  }

  #receive(message: JSONRPCMessage): void {
    if ("method" in message) {
      if ("id" in message && message.id !== undefined) this.#onRequest(message);
      else this.#onNotification(message);
    } else if ("result" in message || "error" in message) {
      this.#onResponse(message);
    } else {
      this.onerror?.(new Error(`Unknown message type: ${JSON.stringify(message)}`));
    }
  }

  #onRequest(request: JSONRPCRequest): void {
    // Answers go to the transport the request came on, even if the server reconnects meanwhile.
    const transport = this.#transport;
    const { id, method } = request;
    const handler = this.#requestHandlers.get(method);
    if (!handler) {
      transport?.send({
        jsonrpc: "2.0",
        id,
        error: { code: ErrorCode.MethodNotFound, message: "Method not found" },
      }).catch((error) => this.onerror?.(new Error(`Failed to send an error response: ${error}`)));
      return;
    }
    const controller = new AbortController();
    this.#handling.set(id, controller);
    const params: unknown = request.params;
    const extra: RequestExtra = {
      signal: controller.signal,
      requestId: id,
      sessionId: transport?.sessionId,
      meta: isObject(params) && isObject(params._meta) ? params._meta : undefined,
      sendNotification: async (notification) => {
        if (controller.signal.aborted) return;
        await this.notification(notification, { relatedRequestId: id });
      },
    };
    Promise.resolve()
      .then(() => {
        if (params !== undefined && !isObject(params)) {
          throw invalidParams(method, "params must be an object.");
        }
        return handler(params ?? {}, extra);
      })
      .then(
        async (result) => {
          // A cancelled request is not answered (MCP's cancellation).
          if (controller.signal.aborted) return;
          await transport?.send({ result, jsonrpc: "2.0", id } as JSONRPCMessage);
        },
        async (error) => {
          if (controller.signal.aborted) return;
          await transport?.send({ jsonrpc: "2.0", id, error: errorBody(error) });
        },
      )
      .catch((error) => this.onerror?.(new Error(`Failed to send response: ${error}`)))
      .finally(() => {
        if (this.#handling.get(id) === controller) this.#handling.delete(id);
      });
  }

  #onNotification(notification: JSONRPCNotification): void {
    const handler = this.#notificationHandlers.get(notification.method);
    const fallback = this.fallbackNotificationHandler;
    const params: Params = isObject(notification.params) ? notification.params : {};
    const run = handler
      ? () => handler(params)
      : fallback && (() => fallback({ method: notification.method, params }));
    if (!run) return;
    Promise.resolve()
      .then(run)
      .catch((error) => {
        this.onerror?.(new Error(`Uncaught error in notification handler: ${error}`));
      });
  }

  #onResponse(response: JSONRPCMessage): void {
    const answer = response as { id?: RequestId; result?: Params; error?: McpErrorBody };
    const outgoing = this.#outgoing.get(Number(answer.id));
    if (!outgoing) {
      this.onerror?.(
        new Error(`Received a response for an unknown message ID: ${JSON.stringify(response)}`),
      );
      return;
    }
    outgoing.settle(
      answer.error
        ? new McpError(answer.error.code, answer.error.message, answer.error.data)
        : { result: answer.result ?? {} },
    );
  }

  /** The connection closed: stop the calls running, fail the requests waiting on the client. */
  #closed(): void {
    const waiting = [...this.#outgoing.values()];
    this.#outgoing.clear();
    for (const controller of this.#handling.values()) controller.abort();
    this.#handling.clear();
    this.#transport = undefined;
    this.onclose?.();
    const error = new McpError(ErrorCode.ConnectionClosed, "Connection closed");
    for (const outgoing of waiting) outgoing.settle(error);
  }

  #initialize(params: Params): InitializeResult {
    const requested = params.protocolVersion;
    if (typeof requested !== "string") {
      throw invalidParams("initialize", "'protocolVersion' must be a string.");
    }
    this.#clientCapabilities = isObject(params.capabilities) ? params.capabilities : {};
    this.#clientInfo = isObject(params.clientInfo)
      ? params.clientInfo as Implementation
      : undefined;
    return {
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
        ? requested
        : LATEST_PROTOCOL_VERSION,
      capabilities: this.#capabilities,
      serverInfo: this.#info,
      ...(this.#instructions ? { instructions: this.#instructions } : {}),
    };
  }
}

interface McpErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/** The `error` of an answer to a request whose handler threw `error` (as the SDK words it). */
function errorBody(error: unknown): McpErrorBody {
  const fields = isObject(error)
    ? error as { code?: unknown; message?: unknown; data?: unknown }
    : {};
  return {
    code: Number.isSafeInteger(fields.code) ? fields.code as number : ErrorCode.InternalError,
    message: typeof fields.message === "string" ? fields.message : "Internal error",
    ...(fields.data !== undefined ? { data: fields.data } : {}),
  };
}
