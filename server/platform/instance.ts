import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Who this process is (ADR 061): `bootId` names this process, `instanceId` the instance it is, the same across its
 * restarts. Leases (outbox rows, idempotency claims) carry both, so a restarted instance knows that the leases its
 * previous process left are dead. Until the process holds its instance's address (it listens there: no other live
 * process can), its instance id is its own; so a process that never does (a test app on another port, a command
 * line tool) never takes a live process's leases for a dead one's.
 */
export class ProcessIdentity {
  private id: string;

  constructor(readonly bootId: string = randomUUID()) {
    this.id = `${hostname()}/process:${bootId}`;
  }

  get instanceId(): string {
    return this.id;
  }

  /** This process now holds the instance's address: it is that instance. */
  establish(instanceId: string): void {
    this.id = instanceId;
  }
}

/**
 * The instance's id: INSTANCE_ID, else the host's name and the address it listens on; null when the port is chosen
 * by the system (PORT=0), which no later process can be sure to get again.
 */
export function instanceIdOf(env: { INSTANCE_ID?: string; HOST: string; PORT: number }): string | null {
  if (env.INSTANCE_ID) return env.INSTANCE_ID;
  return env.PORT ? `${hostname()}/${env.HOST}:${env.PORT}` : null;
}
