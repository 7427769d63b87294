/** Removing a member (or leaving): they lose the team's zones at once. The last owner cannot go (409, shown here). */
import type { Member } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useToast } from '../../ui/toast';
import { useRemoveMember } from './remove-member';

export function RemoveMemberDialog({ team, member, me, onClose, onLeft }: { team: string; member: Member | null; me: string | undefined; onClose: () => void; onLeft: () => void }) {
  const remove = useRemoveMember(team);
  const toast = useToast();
  const self = member?.username === me;
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!member) return;
    remove.mutate(member.username, {
      onSuccess: () => {
        toast('success', self ? `You left ${team}` : `Removed ${member.username} from ${team}`);
        close();
        if (self) onLeft();
      },
    });
  };
  return (
    <ConfirmDialog
      open={member !== null}
      title={self ? `Leave ${team}?` : `Remove ${member?.username ?? ''} from ${team}?`}
      onCancel={close}
      onConfirm={confirm}
      confirmLabel={self ? 'Leave team' : 'Remove member'}
      pendingLabel="Removing…"
      pending={remove.isPending}
      error={remove.error ? <Alert title={self ? 'Could not leave the team' : 'Could not remove the member'}>{remove.error.message}</Alert> : null}
    >
      <p>{self ? 'You lose access to the team’s zones at once.' : `${member?.username ?? ''} loses access to the team’s zones at once, with every token and TSIG key of theirs.`}</p>
    </ConfirmDialog>
  );
}
