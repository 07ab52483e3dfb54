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

/**
 * Where the interface fixes a status's message, it is that text: 401's whole message, and
 * 403's first sentence (the spec's Forbidden pattern lets a sentence follow it).
 */
const FIXED: Record<number, { text: string; more: boolean }> = {
  401: { text: UNAUTHORIZED_MESSAGE, more: false },
  403: { text: FORBIDDEN_MESSAGE, more: true },
};

/**
 * `{success: false, message}` as the spec promises it: the interface's fixed text for its
 * status (403's `detail` a sentence after it), else the status's reason, then the detail.
 */
export function errorBody(status: number, detail?: string): ErrorBody {
  const fixed = FIXED[status];
  if (fixed) {
    const more = fixed.more && detail ? `. ${detail.charAt(0).toUpperCase()}${detail.slice(1)}` : '';
    return { success: false, message: `${fixed.text}${more}` };
  }
  const reason = reasonPhrase(status);
  return { success: false, message: detail ? `${reason}: ${detail}` : reason };
}

/** The 429 body: the real service's own text, which has no reason phrase (see the spec's TooManyRequests). */
export function rateLimitedBody(retryAfterSeconds: number): ErrorBody {
  return { success: false, message: `Rate limit exceeded. Try again in ${retryAfterSeconds} seconds.` };
}
