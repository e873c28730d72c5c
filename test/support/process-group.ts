// Whether a process group (a local worker's: its runtime and workerd) still has a live member.
export const groupAlive = (group: number): boolean => {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
};
