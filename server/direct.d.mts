type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface DirectRoutes {
  lookup(method: string, pathname: string): Promise<{ handler: Handler; params: Record<string, string> } | null>;
  serve(req: unknown, res: unknown, found: { handler: Handler; params: Record<string, string> }, body: Uint8Array, signal: AbortSignal): Promise<void>;
}

export declare function createDirectRoutes(options: {
  distDir: string;
  routeTemplate: (pathname: string) => string | undefined;
  makeRequest: (url: string, init: RequestInit) => Request;
}): DirectRoutes;
