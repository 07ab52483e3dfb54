// The spec's one error body. Every error the mock writes goes through here, so each
// message starts with its status's reason ("Not Found: ...") as the spec promises.

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** `{success: false, message}` with the status's reason first, as the spec promises. */
export function errorBody(status: number, detail?: string) {
  const reason = REASONS[status] ?? 'Error';
  return { success: false as const, message: detail ? `${reason}: ${detail}` : reason };
}
