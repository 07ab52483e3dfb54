// The requests the suite may send beyond Dredd's own (`--budget`): the depth families
// spend it in table order, the sample takes what is left. Cleanup is never refused, so a
// key the suite created is always removed.
export class Budget {
  spent = 0;
  refused = 0;
  /** Cleanup requests, sent whatever the budget. */
  cleanup = 0;

  constructor(readonly limit: number) {}

  left(): number {
    return Math.max(0, this.limit - this.spent);
  }

  /** Takes one request from the budget; `essential` (cleanup) always gets one. */
  take(essential = false): boolean {
    if (essential) {
      this.cleanup++;
      return true;
    }
    if (this.spent >= this.limit) {
      this.refused++;
      return false;
    }
    this.spent++;
    return true;
  }
}
