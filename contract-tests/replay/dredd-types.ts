// The parts of a Dredd 14 transaction the replay reads and fills in (Dredd's Node.js
// hooks API hands one to each hook).
export interface DreddTransaction {
  name: string;
  id: string;
  origin: { resourceName: string; actionName: string; exampleName: string };
  host: string;
  port: string | number;
  protocol: string;
  fullPath: string;
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected: { statusCode: string; headers: Record<string, string>; body?: string; bodySchema?: unknown };
  real?: { statusCode: number; headers: Record<string, string>; body: string };
  skip: boolean;
  fail: boolean | string;
  test?: { status: string; message?: string; valid?: boolean };
  errors?: { severity: string; message: string }[];
}
