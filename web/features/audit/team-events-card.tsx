/** On a team's zone's History: the team's role changes, who could reach the zone and how. Nothing when there are none. */
import { AuditTable } from './audit-table';
import { useTeamEvents } from './list-audit';

export function TeamEventsCard({ zone, team }: { zone: string; team: string | undefined | null }) {
  const events = useTeamEvents(zone, Boolean(team));
  if (!team || !events.data || events.data.total === 0) return null;
  return (
    <section className="card" aria-labelledby="team-events-title">
      <h2 id="team-events-title">Role changes in team {team}</h2>
      <p className="muted">
        Who could reach this zone, and with which role: the latest {Math.min(events.data.items.length, events.data.total)} of {events.data.total}.
      </p>
      <AuditTable events={events.data.items} />
    </section>
  );
}
