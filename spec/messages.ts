// The texts the interface fixes for errors, in one place: the exact 401 and 403
// messages, the real service's 429 text, and the rule that every other error message
// starts with its status's reason phrase ("Not Found: ...", see the spec's
// ErrorBody.message).

export const UNAUTHORIZED_MESSAGE = 'Unauthorized: Invalid API key or session';
export const FORBIDDEN_MESSAGE = "Forbidden: You don't have permission to access this resource";

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The reason phrase an error message of this status starts with. */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? 'Error';
}

export interface ErrorBody {
  success: false;
  message: string;
}

/** `{success: false, message}` with the status's reason first, as the spec promises. */
export function errorBody(status: number, detail?: string): ErrorBody {
  const reason = reasonPhrase(status);
  return { success: false, message: detail ? `${reason}: ${detail}` : reason };
}

/** The 429 body: the real service's own text, which has no reason phrase (see the spec's TooManyRequests). */
export function rateLimitedBody(retryAfterSeconds: number): ErrorBody {
  return { success: false, message: `Rate limit exceeded. Try again in ${retryAfterSeconds} seconds.` };
}
