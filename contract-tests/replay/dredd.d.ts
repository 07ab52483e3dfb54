// The parts of Dredd 14's Node.js hooks API the suite uses. Dredd injects the `hooks`
// module into each hook file (it loads them through proxyquire).
declare module 'hooks' {
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
  type Done = () => void;
  type Hook = (transaction: DreddTransaction, done: Done) => void;
  type AllHook = (transactions: DreddTransaction[], done: Done) => void;
  const hooks: {
    beforeAll(fn: AllHook): void;
    afterAll(fn: AllHook): void;
    beforeEach(fn: Hook): void;
    beforeEachValidation(fn: Hook): void;
    afterEach(fn: Hook): void;
    log(message: string): void;
  };
  export default hooks;
}
