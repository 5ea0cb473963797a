export default function Tenants() {
  return <p>tenants</p>;
}
