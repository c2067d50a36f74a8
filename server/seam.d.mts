export declare const SEAM_GLOBALS: Readonly<{ bridge: "__memoryHqServerBridge"; admittedAtAccept: "__memoryHqAdmittedAtAccept"; engine: "__memoryHqEngine" }>;
export declare const SEAM_HEADERS: Readonly<{ queueMs: "x-memory-hq-queue-ms"; path: "x-mhq-path" }>;
export declare const ENGINE_SOCKET_ENV: "MHQ_ENGINE_SOCKET";
export declare const UNMATCHED_ROUTE: "unmatched";
export declare const SERVER_STOPPING: "memory-hq: the server is shutting down";
